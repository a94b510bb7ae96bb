"""Web Bot Auth: request signatures and the key directory (``docs/behaviour.md`` §13), no Scrapy.

:mod:`.keys` reads, makes and describes Ed25519 keys (it needs the ``cryptography`` package, the
``[signing]`` extra); :mod:`.signature` builds the signature header fields of one request.
"""
