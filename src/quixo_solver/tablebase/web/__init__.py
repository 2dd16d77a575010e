"""Tables over the network: the manifest of a folder (names, sizes, SHA-256), downloads from
a mirror checked against it, and a tablebase answered by a remote explorer; all through one
HTTP client (http.py)."""
