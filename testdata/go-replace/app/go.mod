module example.com/app

go 1.22

require example.com/greet v0.0.0

replace example.com/greet => ../greet
