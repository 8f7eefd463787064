; typescript: to be written
