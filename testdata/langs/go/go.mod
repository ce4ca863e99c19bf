module example.com/langs

go 1.22
