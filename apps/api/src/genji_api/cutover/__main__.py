import sys

from genji_api.cutover.cli import main

sys.exit(main())
