module example.com/lintdemo

go 1.22
