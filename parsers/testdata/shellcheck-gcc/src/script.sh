#!/bin/sh
echo $1
	cp $2 /tmp
name="héllo 🌍"; echo $name $3
		echo "x" $4
if true; then
	  a	b $5
fi
