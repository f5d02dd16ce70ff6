import ScandBench

BenchCommand.main()
