module example.com/sarifsample

go 1.22
