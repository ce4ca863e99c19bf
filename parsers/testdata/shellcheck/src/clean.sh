#!/bin/sh
echo "ok"
