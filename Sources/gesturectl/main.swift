print("gesturectl: not yet implemented")
