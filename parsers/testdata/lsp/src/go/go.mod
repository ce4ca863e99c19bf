module example.com/lspsample

go 1.22
