"""Training: tasks (a network with its vocabularies: batches, loss, string predictions),
the model-agnostic trainer (given a :class:`~symcomp.models.run_dir.RunDir`, it knows no file
names), batching (``data``) and the device, precision and seeding (``device``).
"""
