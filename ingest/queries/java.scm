; java: to be written
