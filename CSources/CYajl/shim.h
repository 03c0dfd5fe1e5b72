// Umbrella for the system yajl headers (Debian: libyajl-dev).
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>
