# Sourced by the bench scripts that start redis-server with RedisBloom: sets $module, the module's path, from the
# environment variable REDISBLOOM, by default RedisBloom 2.4.23 as built for this machine. One lookup for every
# script (the tests' RedisBloomProcess reads the same variable, with the same default).
module="${REDISBLOOM:-/work/shared/redisbloom/redisbloom-2.4.23.so}"
