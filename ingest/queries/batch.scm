; batch: to be written
