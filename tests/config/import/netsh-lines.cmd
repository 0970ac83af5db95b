@echo off
rem Windows tuning: one line tcptune does not manage, in the middle
netsh int tcp set global autotuninglevel=normal
netsh int tcp set heuristics disabled
netsh interface tcp set global rss=enabled
exit 0
