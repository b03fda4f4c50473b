print("nodwire")
