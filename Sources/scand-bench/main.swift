import ScandBench

await BenchCommand.runMain()
