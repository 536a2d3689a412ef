"""The screens of the interface."""
