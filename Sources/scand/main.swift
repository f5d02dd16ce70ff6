import ScandCommands

await ScandCommand.runMain()
