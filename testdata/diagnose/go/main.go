package main

import "fmt"

func main() {
	var n int = "seven"
	fmt.Println(n)
}
