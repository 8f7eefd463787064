; arkts: to be written
