"""A CFQ-style question -> SPARQL language (Keysers et al. 2020): its logical forms,
knowledge rules, DAGs and subsampled pools."""
