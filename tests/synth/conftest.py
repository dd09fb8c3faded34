import sys
from pathlib import Path

# The scripted fakes and fixtures live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))
