import ScandBench

BenchCommand.runMain()
