; tsx: to be written
