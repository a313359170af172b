from sos_tui.cli import main

raise SystemExit(main())
