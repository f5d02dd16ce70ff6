import ScandCommands

ScandCommand.main()
