"""Suite-wide: the words tests read are the source language's unless a test asks for another.

A developer whose locale is German (``LANG=de_DE.UTF-8``) gets the same results as CI;
tests of the German words pass ``--language de`` or their own environment.
"""

import os

os.environ["LANGUAGE"] = "en"
