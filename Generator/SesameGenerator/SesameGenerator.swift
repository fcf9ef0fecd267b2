// read → validate → IR → render
