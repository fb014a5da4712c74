"""What the networks read: token vocabularies and ids (``vocab``), parse trees and
level-ordered tree batches (``trees``). Both the networks and the training code use them.
"""
