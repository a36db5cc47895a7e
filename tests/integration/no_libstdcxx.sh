#!/bin/sh
# The tool is freestanding C++: no libstdc++/libsupc++ symbol may be linked
# in (they would drag in libc and static constructors Valgrind never runs),
# and nothing may remain undefined.
tool=$1 nm=${2:-nm}
syms=$("$nm" "$tool") || { echo "FAIL: cannot read $tool"; exit 1; }
bad=$(printf '%s\n' "$syms" | grep -E ' (_ZSt|_ZNSt|_ZNKSt|__cxa_|__gxx_|_Znw|_Zna|_Zdl|_Zda|__dynamic_cast|_ZTI|_ZTS)' )
undef=$(printf '%s\n' "$syms" | grep -E '^ +[Uw] ' | grep -v -E ' w (__gmon_start__|_ITM_|__cxa_finalize|_Jv_)')
if [ -n "$bad" ] || [ -n "$undef" ]; then
  echo "FAIL: C++ runtime or undefined symbols in $tool:"; printf '%s\n%s\n' "$bad" "$undef" | head -n 30; exit 1
fi
echo "ok: $(printf '%s\n' "$syms" | wc -l) symbols, none from the C++ runtime, none undefined"
