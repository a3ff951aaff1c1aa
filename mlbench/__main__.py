from mlbench.cli.main import main

main()
