"""A local Hugging Face Hub over HTTP, for the real ``huggingface_hub`` and ``datasets`` clients (see docs/HUB.md)."""
