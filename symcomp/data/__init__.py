"""Data on disk: pools (drawing, generating, naturalising), artifacts and manifests,
exports, statistics and splits."""
