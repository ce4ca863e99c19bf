module example.com/vetdemo

go 1.22
