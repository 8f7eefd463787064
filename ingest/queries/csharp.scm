; csharp: to be written
