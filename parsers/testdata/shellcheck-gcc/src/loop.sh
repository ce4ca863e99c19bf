#!/bin/bash
x=1
for f in $(ls *.txt); do echo "$f"; done
now=`date`
echo "$now"
