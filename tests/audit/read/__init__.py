"""audit/read: what the auditor reads (manifests, specs), and what it refuses."""
