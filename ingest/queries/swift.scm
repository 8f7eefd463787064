; swift: to be written
