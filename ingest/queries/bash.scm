; bash: to be written
