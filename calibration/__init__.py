"""Fitting the model's parameters to measurements of a real set (scipy; never pygame).

Built by a later issue; the package exists so the layout is complete.
"""
