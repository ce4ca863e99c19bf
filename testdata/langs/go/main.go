package main

import (
	"fmt"

	"example.com/langs/greet"
)

func main() {
	fmt.Println(greet.Greet("world"))
}
