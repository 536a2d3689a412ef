"""The SSH server: sessions, the lobby, identities, limits and storage (installed as
``diamant_server``).

asyncssh (2.24) names cryptography's DSA key classes in its type hints, read as it is
imported, and cryptography 51 answers each name with a deprecation warning on standard
error: ten lines at every ``diamant`` command (every command's module is imported for
``--help``), before anything else is said, and in every check that a failed start says
one line. They tell a host nothing it can act on, so those warnings, and only those
raised from asyncssh's modules, are silenced before any part of the server imports it.
"""

import warnings

from cryptography.utils import CryptographyDeprecationWarning

warnings.filterwarnings("ignore", category=CryptographyDeprecationWarning,
                        module=r"asyncssh(\.|$)")
