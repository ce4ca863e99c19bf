module example.com/builddemo

go 1.22
