print("outline")
