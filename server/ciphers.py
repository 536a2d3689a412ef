"""The ciphers and MACs the server offers: AES only, for it is several times cheaper here.

Every frame a seat draws is encrypted for it alone, so the cipher's cost per packet is
paid for every seat at every frame. asyncssh encrypts ChaCha20-Poly1305 with a new
cipher object and a Poly1305 key per packet: about 15 µs a packet on the development
machine, against 2.8 µs for AES-128-GCM and 3.3 µs for AES-128-CTR with
HMAC-SHA2-256 (encrypt-then-MAC), whose AES runs in the processor's AES instructions
through OpenSSL. That was about 3 % of a server's CPU in play.

In SSH the client's order decides among what both sides offer (RFC 4253, 7.1), and
OpenSSH and asyncssh clients put ChaCha20-Poly1305 first: a server that offers it gets
it. So it is not offered. Every SSH client in use has AES-CTR, and most AES-GCM too:
OpenSSH has had them since 3.7 (2003) and 6.2 (2013), PuTTY AES-GCM since 0.76 (2021).
OpenSSH's clients then take AES-128-CTR, with the first MAC of theirs offered here: UMAC
is not offered, for asyncssh's costs 5.4 µs a packet against 3.3 µs for HMAC-SHA2-256.
Nor is any CBC cipher, SHA-1 or MD5 (asyncssh's defaults offer no CBC cipher or MD5
either).
"""

from __future__ import annotations

CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com",
           "aes128-ctr", "aes192-ctr", "aes256-ctr")
"""The encryption algorithms offered, by their SSH names (authenticated GCM first)."""

MACS = ("hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com",
        "hmac-sha2-256", "hmac-sha2-512")
"""The MACs offered for the CTR ciphers (GCM carries its own), encrypt-then-MAC first."""

__all__ = ["CIPHERS", "MACS"]
