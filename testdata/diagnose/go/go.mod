module example.com/diag

go 1.21
