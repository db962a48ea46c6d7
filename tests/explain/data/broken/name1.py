y = x*2; z = y*3
