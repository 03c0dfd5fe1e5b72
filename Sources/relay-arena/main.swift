print("relay-arena")
