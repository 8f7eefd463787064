; dart: to be written
