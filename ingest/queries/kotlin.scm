; kotlin: to be written
