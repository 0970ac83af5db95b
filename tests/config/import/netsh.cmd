rem Windows tuning, from the seed
netsh interface tcp set global autotuninglevel=normal rss=enabled
netsh int tcp set global ecncapability=disabled
