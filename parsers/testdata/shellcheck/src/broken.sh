#!/bin/sh
if [ $x = 1 ]
