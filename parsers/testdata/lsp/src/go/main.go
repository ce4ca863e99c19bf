package main

import "fmt"

func main() {
	fmt.Println("héllo 😀", undefinedName)
	var unusedVar int
}
