import sys

from genji_devstack.local_stack.stack import main

sys.exit(main())
